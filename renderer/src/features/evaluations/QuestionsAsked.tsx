/** What a run asked: its models, provider preferences and each question's instructions and criteria, as stored when it started. */
function guidance(value: unknown): string {
  return value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
}

function Criteria({ question }: { question: { type?: string; criteria?: unknown } }) {
  const c = question.criteria;
  if (c === undefined || c === null) return null;
  if (question.type === 'score' && Array.isArray(c)) {
    return (
      <ol start={0} className="small asked-criteria">
        {c.map((level, i) => (
          <li key={i}>{guidance(level)}</li>
        ))}
      </ol>
    );
  }
  return (
    <ul className="small asked-criteria">
      {Object.entries(c as Record<string, unknown>).map(([k, v]) => (
        <li key={k}>
          <span className="mono">{k}</span>
          {guidance(v) ? `: ${guidance(v)}` : ''}
        </li>
      ))}
    </ul>
  );
}

export function QuestionsAsked({
  title,
  models,
  questions,
  provider,
  other,
}: {
  title: string;
  models: readonly string[];
  questions: Record<string, unknown>;
  provider: unknown;
  other?: Record<string, unknown>;
}) {
  return (
    <section className="questions-asked" aria-label={title}>
      <h4>{title}</h4>
      <p className="small">
        Models: <span className="mono">{models.join(', ')}</span>
        {provider ? (
          <>
            {' '}
            · provider preferences <span className="mono">{JSON.stringify(provider)}</span>
          </>
        ) : null}
      </p>
      <dl className="asked-list">
        {Object.entries(questions).map(([name, raw]) => {
          const q = raw as { type?: string; instructions?: unknown; criteria?: unknown };
          const differs = other !== undefined && JSON.stringify(other[name]) !== JSON.stringify(raw);
          return (
            <div key={name} className={differs ? 'asked differs' : 'asked'}>
              <dt>
                <span className="mono">{name}</span> <span className="muted small">{q.type === 'noul' ? 'yes/no' : q.type}</span>
                {differs ? <span className="badge badge-warn">{other![name] === undefined ? 'only here' : 'differs'}</span> : null}
              </dt>
              <dd>
                {guidance(q.instructions)}
                <Criteria question={q} />
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
