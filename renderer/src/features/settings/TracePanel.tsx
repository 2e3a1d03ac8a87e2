import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorNotice, Panel } from '../../ui/components';
import { settingsQuery, useSaveTraceDestinations } from './api';

/** Where Decisions spans are exported (OTLP over HTTP); one collector base URL per line. */
export function TracePanel() {
  const settings = useQuery(settingsQuery());
  const [text, setText] = useState('');
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    if (settings.data && !dirty) setText(settings.data.trace_destinations.join('\n'));
  }, [settings.data, dirty]);
  const save = useSaveTraceDestinations(text, () => setDirty(false));
  return (
    <Panel title="Trace destinations">
      <p className="muted">
        Each Decisions request becomes an OpenTelemetry span sent to these collectors (OTLP over HTTP, JSON, at <code>/v1/traces</code>). The request's{' '}
        <code>trace</code> keys name the span; other keys travel as attributes.
      </p>
      <label htmlFor="trace-destinations" className="visually-hidden">
        Collector URLs, one per line
      </label>
      <textarea
        id="trace-destinations"
        rows={3}
        cols={60}
        value={text}
        placeholder="http://127.0.0.1:4318"
        onChange={(e) => {
          setDirty(true);
          setText(e.target.value);
        }}
      />
      <div className="inline-form">
        <button type="button" onClick={() => save.mutate()} disabled={save.isPending}>
          Save destinations
        </button>
        {save.isSuccess ? <span className="muted small">Saved.</span> : null}
      </div>
      {save.error ? <ErrorNotice error={save.error} title="Destinations not saved" /> : null}
    </Panel>
  );
}
