// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderPreferencesSchema } from '../../../../shared/schemas/provider-preferences';
import { PreferencesForm } from './PreferencesForm';

afterEach(cleanup);

let last = '';
function Harness({ initial }: { initial: string }) {
  const [json, setJson] = useState(initial);
  last = json;
  return <PreferencesForm json={json} onChange={setJson} />;
}

describe('PreferencesForm', () => {
  it('writes valid provider preferences, a p50-only cutoff as a number and more as percentiles', () => {
    render(<Harness initial="" />);
    fireEvent.change(screen.getByLabelText('Order'), { target: { value: 'openai, deepinfra/turbo' } });
    fireEvent.change(screen.getByLabelText('Zero data retention'), { target: { value: 'true' } });
    fireEvent.change(screen.getByLabelText('Preferred max latency (seconds to first token) p50'), { target: { value: '1.5' } });
    expect(JSON.parse(last)).toEqual({ order: ['openai', 'deepinfra/turbo'], zdr: true, preferred_max_latency: 1.5 });
    fireEvent.change(screen.getByLabelText('Preferred max latency (seconds to first token) p90'), { target: { value: '3' } });
    fireEvent.click(screen.getByLabelText('fp8'));
    fireEvent.change(screen.getByLabelText('Max prompt price'), { target: { value: '2.5' } });
    const prefs = JSON.parse(last);
    expect(prefs).toMatchObject({ preferred_max_latency: { p50: 1.5, p90: 3 }, quantizations: ['fp8'], max_price: { prompt: '2.5' } });
    expect(ProviderPreferencesSchema.safeParse(prefs).success).toBe(true);
  });

  it('shows JSON typed by hand and clears fields back out of it', () => {
    render(<Harness initial={'{"sort": {"by": "latency", "partition": "none"}, "only": ["groq"]}'} />);
    expect((screen.getByLabelText('Sort by') as HTMLSelectElement).value).toBe('latency');
    expect((screen.getByLabelText('across models') as HTMLInputElement).checked).toBe(true);
    fireEvent.change(screen.getByLabelText('Only'), { target: { value: '' } });
    expect(JSON.parse(last)).toEqual({ sort: { by: 'latency', partition: 'none' } });
  });
});
