/**
 * Settles requests: each one's hold is given back and its real cost added to the spend (once: a
 * second settle of the same request, in this call or a later one, finds no hold and charges nothing).
 * Arguments: the key's state, holds and leases; the state's life in ms (given to a state this made);
 * where the settles start and end in ARGV, which holds them three by three: request id, cost in
 * nano-dollars, '1' to charge without a hold. Read and written with one command each, not a few per
 * settle. Returns how many gave a hold back (a settle gives none when the key has no credit limit or
 * it was settled already: then its cost is added only when it says '1').
 */
const SETTLE_FUNCTION = `
local function settle(state, holds, leases, life, first, last)
  if last < first then return 0 end
  local rids = {}
  for i = first, last, 3 do rids[#rids + 1] = ARGV[i] end
  local amounts = redis.call('HMGET', holds, unpack(rids))
  local hasSpent = redis.call('HEXISTS', state, 'spent') == 1
  local released, charged, gone, seen = 0, 0, {}, {}
  for j, rid in ipairs(rids) do
    local amount = amounts[j]
    if seen[rid] then amount = false end
    local i = first + 3 * (j - 1)
    if amount then
      released = released + tonumber(amount)
      gone[#gone + 1] = rid
      seen[rid] = true
    end
    local charge = tonumber(ARGV[i + 1])
    if (amount or ARGV[i + 2] == '1') and charge ~= 0 and hasSpent then charged = charged + charge end
  end
  if #gone > 0 then
    redis.call('HINCRBY', state, 'held', -released)
    redis.call('HDEL', holds, unpack(gone))
    redis.call('ZREM', leases, unpack(gone))
  end
  if charged ~= 0 then redis.call('HINCRBY', state, 'spent', charged) end
  -- Every key lives for a while only: a state this made (its earlier one expired) gets the key's life.
  if redis.call('PTTL', state) == -1 then redis.call('PEXPIRE', state, life) end
  return #gone
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
local rate, state, leases, holds = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
-- The settles first.
settle(state, holds, leases, life, 5 + 5 * n, #ARGV)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
-- Holds of instances that died with requests in flight: released, never charged here. Such an
-- instance may have committed the charge to the ledger before it could settle: the spend is marked
-- stale, and read again from the ledger before the next credit check.
local expired = redis.call('ZRANGEBYSCORE', leases, '-inf', now)
if #expired > 0 then
  local amounts = redis.call('HMGET', holds, unpack(expired))
  local lapsed = 0
  for j = 1, #expired do lapsed = lapsed + tonumber(amounts[j] or '0') end
  if lapsed ~= 0 then redis.call('HINCRBY', state, 'held', -lapsed) end
  redis.call('HDEL', holds, unpack(expired))
  redis.call('ZREM', leases, unpack(expired))
  redis.call('HSET', state, 'stale', 1)
end
-- The key's state read once; each request is checked against it as the ones before it left it, and
-- what they change is written once at the end.
local st = redis.call('HMGET', state, 'gen', 'spent', 'stale', 'held')
local known, spent, stale, held = tonumber(st[1] or '0'), st[2] and tonumber(st[2]), st[3] ~= false, tonumber(st[4] or '0')
local counted, oldest = nil, nil
local heldAdded, newHolds, newLeases, logged = 0, {}, {}, {}
local admitted = false
local function admit(gen, limit, credit, worst, rid)
  if known > gen then return -2, known, 0 end
  if limit > 0 then
    if counted == nil then
      redis.call('ZREMRANGEBYSCORE', rate, '-inf', now - window)
      counted = redis.call('ZCARD', rate)
    end
    if counted >= limit then
      -- The oldest request in the window: one from before this call (this call's are written at its
      -- end), else one this call admitted, at now.
      if oldest == nil then
        local first = redis.call('ZRANGE', rate, 0, 0, 'WITHSCORES')
        oldest = first[2] and tonumber(first[2]) or now
      end
      return 0, math.max(1, math.ceil((oldest + window - now) / 1000)), 0
    end
  end
  if credit >= 0 then
    if not spent or stale then return -3, 0, 0 end
    if spent + held + worst > credit then return -1, spent, held end
    if worst > 0 then
      held = held + worst
      heldAdded = heldAdded + worst
      newHolds[#newHolds + 1] = rid
      newHolds[#newHolds + 1] = worst
      newLeases[#newLeases + 1] = now + lease
      newLeases[#newLeases + 1] = rid
    end
  end
  if limit > 0 then
    counted = counted + 1
    logged[#logged + 1] = now
    logged[#logged + 1] = rid
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
if heldAdded > 0 then
  redis.call('HINCRBY', state, 'held', heldAdded)
  redis.call('HSET', holds, unpack(newHolds))
  redis.call('ZADD', leases, unpack(newLeases))
  redis.call('PEXPIRE', leases, lease * 2)
  redis.call('PEXPIRE', holds, lease * 2)
end
if #logged > 0 then
  redis.call('ZADD', rate, unpack(logged))
  redis.call('PEXPIRE', rate, window)
end
if admitted then redis.call('PEXPIRE', state, life) end
return out
`;

/** One settle on its own (`settle` above): 1 when it gave a hold back. KEYS: the admission's 2, 4, 3; ARGV: request id, cost, unheld, life. */
export const SETTLE_SCRIPT = `${SETTLE_FUNCTION}
return settle(KEYS[1], KEYS[2], KEYS[3], ARGV[4], 1, 3)
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
