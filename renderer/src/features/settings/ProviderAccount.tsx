import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ProviderSummary } from '../../../../shared/schemas/inspector';
import { ErrorNotice } from '../../ui/components';
import { settingsQuery, useSetProviderAccount } from './api';

/** The placeholder a bundled address has for the user's account (as the core's catalog writes it). */
export const ACCOUNT_PLACEHOLDER = '{account_id}';

/** Whether the provider's address names the user's account, which then has to be entered (Cloudflare Workers AI). */
export const needsAccount = (provider: ProviderSummary) => provider.base_url.includes(ACCOUNT_PLACEHOLDER);

/** The provider's address as its requests go: with the account id entered in place of the placeholder. */
export function useAddressOf(provider: ProviderSummary): string {
  const settings = useQuery(settingsQuery());
  const account = settings.data?.provider_accounts[provider.slug];
  return account ? provider.base_url.replace(ACCOUNT_PLACEHOLDER, encodeURIComponent(account)) : provider.base_url;
}

/** The account id field of a provider whose address names the account; it is not a secret, so it is shown as entered. */
export function ProviderAccount({ provider }: { provider: ProviderSummary }) {
  const settings = useQuery(settingsQuery());
  const saved = settings.data?.provider_accounts[provider.slug] ?? '';
  const [draft, setDraft] = useState<string | null>(null);
  const save = useSetProviderAccount(provider.slug, () => setDraft(null));
  const value = draft ?? saved;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(value);
  };
  const inputId = `account-${provider.slug}`;
  return (
    <form className="inline-form provider-account" onSubmit={onSubmit}>
      <label htmlFor={inputId}>Account id</label>
      <input
        id={inputId}
        autoComplete="off"
        spellCheck={false}
        placeholder="from the dashboard's URL"
        value={value}
        onChange={(e) => setDraft(e.target.value)}
        aria-describedby={`${inputId}-state`}
      />
      <button type="submit" className="secondary" disabled={draft === null || draft.trim() === saved || save.isPending}>
        {save.isPending ? 'Saving…' : 'Save account'}
      </button>
      <span id={`${inputId}-state`} className={`badge ${saved ? 'badge-ok' : 'badge-warn'}`}>
        {saved ? 'account set' : 'needed: its address names your account'}
      </span>
      {save.error ? <ErrorNotice error={save.error} title="Account id not saved" /> : null}
    </form>
  );
}
