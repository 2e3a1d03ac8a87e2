import { EmptyState, Panel, ScreenHeader } from '../../ui/components';

export function QuestionSetsScreen() {
  return (
    <>
      <ScreenHeader
        title="Question sets"
        description="Named questions about some content: yes/no (noul), choice, score and box, answered as measured probabilities."
      />
      <Panel title="Your question sets">
        <EmptyState title="No question sets yet">
          Composing, importing and saving question sets is not available in this version. The gateway's Decisions API is described in
          the README.
        </EmptyState>
      </Panel>
    </>
  );
}
