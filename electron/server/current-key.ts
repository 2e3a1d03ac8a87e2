import type { ApiKeyInfo } from '../../shared/schemas/inspector';
import { GatewayError } from '../core';

/**
 * The bearer key's own figures in the shape of OpenRouter's `GET /api/v1/key`, which the official
 * clients read (`@openrouter/sdk`'s `apiKeys.getCurrentKeyMetadata`). Usage is what the key was
 * charged, in all and in the current UTC day, week (from Monday) and month; `limit` its credit limit
 * and `limit_remaining` what is left of it; `rate_limit` its own requests per minute (`-1`: none, as
 * OpenRouter writes it). Verdict has no BYOK usage billed apart, no free-model quota, no data
 * regions of its own, no organisations and no expiry: those fields say so (0, none, `global`, null).
 */
export function currentKey(periods: { info: ApiKeyInfo; day: number; week: number; month: number } | undefined) {
  // Verified a moment ago; gone now only if it was deleted in between.
  if (!periods) throw new GatewayError('unauthorized', 'Invalid or revoked API key');
  const { info } = periods;
  return {
    label: info.label,
    limit: info.credit_limit,
    limit_remaining: info.credit_limit === null ? null : Math.max(0, Math.round((info.credit_limit - info.spent) * 1e6) / 1e6),
    limit_reset: null,
    usage: info.spent,
    usage_daily: periods.day,
    usage_weekly: periods.week,
    usage_monthly: periods.month,
    byok_usage: 0,
    byok_usage_daily: 0,
    byok_usage_weekly: 0,
    byok_usage_monthly: 0,
    include_byok_in_limit: false,
    is_free_tier: false,
    is_management_key: info.kind === 'management',
    is_provisioning_key: info.kind === 'management',
    rate_limit: {
      requests: info.rate_limit_rpm ?? -1,
      interval: '1m',
      note: info.rate_limit_rpm === null ? 'This key has no rate limit.' : `At most ${info.rate_limit_rpm} requests a minute with this key.`,
    },
    free_model_daily_requests: { limit: 0, remaining: 0, used: 0 },
    allowed_data_regions: ['global'],
    creator_user_id: null,
    organization_id: null,
    workspace_id: null,
    expires_at: null,
  };
}
