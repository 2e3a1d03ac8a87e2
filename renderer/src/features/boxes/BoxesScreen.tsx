import { EmptyState, Panel, ScreenHeader } from '../../ui/components';

export function BoxesScreen() {
  return (
    <>
      <ScreenHeader title="Boxes" description="Draw ground-truth boxes over images, run box questions and review the answers by IoU." />
      <Panel title="Images">
        <EmptyState title="No images loaded">Box review is not available in this version.</EmptyState>
      </Panel>
    </>
  );
}
