/**
 * Settles a request: its hold is given back and its real cost added to the spend (once: a second
 * settle of the same request finds no hold and charges nothing). Arguments: the key's state, holds
 * and leases; the request id; its cost in nano-dollars; '1' to charge without a hold; the state's
 * life in ms (given to a state this made). 1 when it settled, 0 when there was no hold (no credit
 * limit, or settled already: then the cost is added only when the fourth argument is '1').
 */
const SETTLE_FUNCTION = `
local function settle(state, holds, leases, rid, charge, unheld, life)
  local amount = redis.call('HGET', holds, rid)
  if amount then
    redis.call('HINCRBY', state, 'held', -tonumber(amount))
    redis.call('HDEL', holds, rid)
    redis.call('ZREM', leases, rid)
  end
  if (amount or unheld == '1') and tonumber(charge) ~= 0 and redis.call('HEXISTS', state, 'spent') == 1 then
    redis.call('HINCRBY', state, 'spent', charge)
  end
  -- Every key lives for a while only: a state this made (its earlier one expired) gets the key's life.
  if redis.call('PTTL', state) == -1 then redis.call('PEXPIRE', state, life) end
  if amount then return 1 end
  return 0
end
`;

/**
 * The team server's admission: the requests of one API key admitted in one turn of an instance's
 * event loop go to Redis in one call of this script, one round trip. Every key of one API key shares
 * a hash tag (`{k:<id>}`), so the script stays valid on Redis Cluster, and time is Redis's own
 * (`TIME`), never an instance's clock. Named by version, so instances of two releases running side by
 * side during a rolling deploy each call their own (V2 took one request; the keys' meaning is the same).
 *
 * KEYS: 1 the rate log (sorted set of request ids by admission time), 2 the key's state (hash:
 * `gen` its revocation generation, `spent` its spend as the ledger has it plus settled charges,
 * `held` what admitted requests hold), 3 the leases (sorted set of request ids by expiry), 4 what
 * each lease holds (hash). Money is in whole nano-dollars (10⁻⁹ USD), so sums are exact.
 *
 * ARGV: 1 the window of the rate limit in ms, 2 the lease in ms, 3 how long the key's state lives
 * without a request, ms, 4 how many requests N; then, five by five, each request: the generation the
 * instance knows, the rate limit per window (0: none), the credit limit (negative: none), the
 * request's worst case, its id; then, three by three, settles of the same key the instance owes
 * (request id, cost, unheld as SETTLE_SCRIPT takes them): applied first, so a request's settle rides
 * the next admission of its key instead of a command of its own.
 *
 * The requests are admitted in order, each as if alone after the one before: returns three numbers
 * for each. {1, Redis's time in ms, 0} admitted; {0, retry-after s, 0} rate-limited; {-1, spent, held}
 * no credit for the worst case; {-2, generation, 0} revoked or changed (the instance reloads its keys
 * and asks again with that generation); {-3, 0, 0} the spend is not in Redis (restarted, evicted or
 * new) or is stale (a lapsed hold's request may be charged in the ledger only): the instance reads it
 * from the ledger, seeds it and asks again.
 */
export const ADMIT_SCRIPT = `${SETTLE_FUNCTION}
local window, lease, life, n = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
for i = 5 + 5 * n, #ARGV, 3 do settle(KEYS[2], KEYS[4], KEYS[3], ARGV[i], ARGV[i + 1], ARGV[i + 2], life) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local known = tonumber(redis.call('HGET', KEYS[2], 'gen') or '0')
-- Holds of instances that died with requests in flight: released, never charged here. Such an
-- instance may have committed the charge to the ledger before it could settle: the spend is marked
-- stale, and read again from the ledger before the next credit check.
local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
for _, old in ipairs(expired) do
  local amount = tonumber(redis.call('HGET', KEYS[4], old) or '0')
  if amount ~= 0 then redis.call('HINCRBY', KEYS[2], 'held', -amount) end
  redis.call('HDEL', KEYS[4], old)
  redis.call('ZREM', KEYS[3], old)
end
if #expired > 0 then redis.call('HSET', KEYS[2], 'stale', 1) end
local trimmed, rated, holding, admitted = false, false, false, false
local function admit(gen, limit, credit, worst, rid)
  if known > gen then return -2, known, 0 end
  if limit > 0 then
    if not trimmed then
      redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
      trimmed = true
    end
    if redis.call('ZCARD', KEYS[1]) >= limit then
      local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
      return 0, math.max(1, math.ceil((tonumber(oldest[2]) + window - now) / 1000)), 0
    end
  end
  if credit >= 0 then
    local spent = redis.call('HGET', KEYS[2], 'spent')
    if not spent or redis.call('HEXISTS', KEYS[2], 'stale') == 1 then return -3, 0, 0 end
    local held = tonumber(redis.call('HGET', KEYS[2], 'held') or '0')
    if tonumber(spent) + held + worst > credit then return -1, tonumber(spent), held end
    if worst > 0 then
      redis.call('HINCRBY', KEYS[2], 'held', worst)
      redis.call('HSET', KEYS[4], rid, worst)
      redis.call('ZADD', KEYS[3], now + lease, rid)
      holding = true
    end
  end
  if limit > 0 then
    redis.call('ZADD', KEYS[1], now, rid)
    rated = true
  end
  admitted = true
  return 1, now, 0
end
local out = {}
for j = 0, n - 1 do
  local b = 5 + 5 * j
  local code, x, y = admit(tonumber(ARGV[b]), tonumber(ARGV[b + 1]), tonumber(ARGV[b + 2]), tonumber(ARGV[b + 3]), ARGV[b + 4])
  out[#out + 1] = code
  out[#out + 1] = x
  out[#out + 1] = y
end
if holding then
  redis.call('PEXPIRE', KEYS[3], lease * 2)
  redis.call('PEXPIRE', KEYS[4], lease * 2)
end
if rated then redis.call('PEXPIRE', KEYS[1], window) end
if admitted then redis.call('PEXPIRE', KEYS[2], life) end
return out
`;

/** One settle on its own (`settle` above). KEYS: the admission's 2, 4, 3; ARGV: request id, cost, unheld, life. */
export const SETTLE_SCRIPT = `${SETTLE_FUNCTION}
return settle(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
`;

/**
 * Sets a key's spend from the ledger when Redis has none, or raises it to the ledger's when lower (a
 * settle that never arrived); never lowers it (settled charges may not be in the ledger yet).
 * KEYS: the state; ARGV: 1 spend, 2 life ms.
 */
export const SEED_SCRIPT = `
local spent = redis.call('HGET', KEYS[1], 'spent')
if not spent or tonumber(spent) < tonumber(ARGV[1]) then redis.call('HSET', KEYS[1], 'spent', ARGV[1]) end
redis.call('HDEL', KEYS[1], 'stale')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return redis.call('HGET', KEYS[1], 'spent')
`;

/** Moves a key's generation, its state living as long as any key's does. KEYS: the state; ARGV: 1 life ms. */
export const BUMP_SCRIPT = `
local gen = redis.call('HINCRBY', KEYS[1], 'gen', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return gen
`;

/** The keys of one API key, all in one hash slot. */
export function keysOf(keyId: string, prefix = 'verdict:v1'): { rate: string; state: string; leases: string; holds: string } {
  const tag = `{k:${keyId}}`;
  return { rate: `${prefix}:${tag}:rate`, state: `${prefix}:${tag}:state`, leases: `${prefix}:${tag}:leases`, holds: `${prefix}:${tag}:holds` };
}
