import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { download } from '../../lib/download';
import { ErrorNotice, Panel } from '../../ui/components';
import { catalogQuery, useImportCatalog } from './api';

const EXAMPLE = `{
  "version": 1,
  "providers": [
    { "slug": "my-ollama", "name": "Ollama on the GPU box", "wire_format": "openai", "base_url": "http://127.0.0.1:11500/v1", "local": true,
      "data_policy": { "zdr": true, "collects_data": false } }
  ],
  "models": [],
  "endpoints": []
}`;

/**
 * Your own providers, models and endpoints (catalog.json), edited here as JSON: checked before it
 * is saved, with each problem named by its path; nothing changes while it is invalid.
 */
export function CatalogPanel() {
  const current = useQuery(catalogQuery());
  const [text, setText] = useState('');
  // What the user typed is never replaced by a later load of the saved catalog.
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    if (current.data && !dirty) setText(JSON.stringify(current.data, null, 2));
  }, [current.data, dirty]);
  const edit = (value: string) => {
    setDirty(true);
    setText(value);
  };
  const save = useImportCatalog(text, () => setDirty(false));
  return (
    <Panel title="Your catalog">
      <p className="muted">
        Providers (including local servers on other ports), models and endpoints you add yourself, with prices in USD per token as decimal strings. Anything you
        leave out stays unknown. The built-in providers can be referred to by their slug.
      </p>
      <label htmlFor="catalog-json" className="visually-hidden">
        Catalog JSON
      </label>
      <textarea id="catalog-json" rows={10} value={text} onChange={(e) => edit(e.target.value)} spellCheck={false} />
      <div className="inline-form">
        <button type="button" onClick={() => save.mutate()} disabled={save.isPending}>
          Check and save
        </button>
        <button type="button" className="secondary" onClick={() => edit(EXAMPLE)}>
          Show an example
        </button>
        <button type="button" className="secondary" onClick={() => download('catalog.json', text)}>
          Export
        </button>
        <label className="file-button secondary">
          Import…
          <input type="file" accept="application/json,.json" onChange={async (e) => e.target.files?.[0] && edit(await e.target.files[0].text())} />
        </label>
        {save.data ? (
          <span role="status" className="small">
            Saved: {save.data.providers} providers, {save.data.models} models, {save.data.endpoints} endpoints.
          </span>
        ) : null}
      </div>
      {save.error ? <ErrorNotice error={save.error} title="Not saved" /> : null}
    </Panel>
  );
}
