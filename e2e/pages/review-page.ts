import type { Locator, Page } from '@playwright/test';

/** The Review screen: the dataset chosen, the item held (or the one just committed), the counts. */
export class ReviewPage {
  readonly dataset: Locator;
  readonly blind: Locator;
  readonly counts: Locator;
  readonly modelAnswers: Locator;
  readonly announcements: Locator;

  constructor(readonly page: Page) {
    this.dataset = page.getByLabel('Dataset', { exact: true });
    this.blind = page.getByLabel("Show the model's answer only after mine");
    this.counts = page.getByTestId('review-counts');
    this.modelAnswers = page.getByTestId('model-answer');
    this.announcements = page.getByRole('log', { name: 'Announcements' });
  }

  /** The heading of the item held, "Item 3 …". */
  itemHeading(n: number): Locator {
    return this.page.getByRole('heading', { level: 2, name: new RegExp(`^Item ${n}\\b(?! (answered|flagged))`) });
  }

  /** The heading of the item just committed. */
  committedHeading(n: number, how: 'answered' | 'flagged' = 'answered'): Locator {
    return this.page.getByRole('heading', { level: 2, name: `Item ${n} ${how}` });
  }

  question(name: string): Locator {
    return this.page.getByRole('radiogroup', { name: new RegExp(`^${name}\\b`) });
  }
}
