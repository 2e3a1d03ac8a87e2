import { EmptyState, Panel, ScreenHeader } from '../../ui/components';

export function RunsScreen() {
  return (
    <>
      <ScreenHeader title="Runs" description="Every run of a question set: typed answers, model, provider, usage, cost and latency." />
      <Panel title="History">
        <EmptyState title="No runs yet">Runs appear here once a question set has been run against a model.</EmptyState>
      </Panel>
    </>
  );
}
