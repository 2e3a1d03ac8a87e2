import type { Locator, Page } from '@playwright/test';

/** The Evaluations screen: datasets, the run form, a run's metrics, results, item and calibration. */
export class EvaluationsPage {
  readonly datasetFile: Locator;
  readonly importButton: Locator;
  readonly estimateButton: Locator;
  readonly startButton: Locator;
  readonly estimate: Locator;
  readonly metrics: Locator;
  readonly results: Locator;
  readonly fitButton: Locator;
  readonly fitted: Locator;
  readonly saveCalibration: Locator;

  constructor(readonly page: Page) {
    this.datasetFile = page.getByLabel('Dataset file');
    this.importButton = page.getByRole('button', { name: 'Import dataset' });
    this.estimateButton = page.getByRole('button', { name: 'Estimate' });
    this.startButton = page.getByRole('button', { name: 'Start run' });
    this.estimate = page.getByRole('status', { name: 'Estimate' });
    this.metrics = page.getByRole('table', { name: 'Metrics per model' });
    this.results = page.getByRole('grid', { name: 'Results' });
    this.fitButton = page.getByRole('button', { name: 'Fit calibration' });
    this.fitted = page.getByRole('status', { name: 'Fitted calibration' });
    this.saveCalibration = page.getByRole('button', { name: 'Save calibration' });
  }

  /** One of the screen's tabs: Runs, New run, Datasets. */
  tab(name: 'Runs' | 'New run' | 'Datasets'): Locator {
    return this.page.getByRole('tab', { name: new RegExp(`^${name}`) });
  }

  async open(name: 'Runs' | 'New run' | 'Datasets'): Promise<void> {
    await this.tab(name).click();
    await this.tab(name).and(this.page.locator('[aria-selected="true"]')).waitFor();
  }

  /** A metric's value cell as the metrics table shows it (the value alone; its interval sits beside it). */
  baseline(question: string): Locator {
    return this.metrics
      .locator('tbody')
      .filter({ has: this.page.locator('.metric-question', { hasText: question }) })
      .locator('[data-baseline]');
  }

  model(id: string): Locator {
    return this.page.getByRole('checkbox', { name: id, exact: true });
  }

  runPanel(status: string): Locator {
    return this.page.getByRole('heading', { level: 2, name: new RegExp(`· ${status}$`) });
  }

  reliability(question: string): Locator {
    return this.page.getByRole('img', { name: `Reliability diagram: ${question}` });
  }

  filter(name: 'All' | 'Wrong' | 'Models disagree' | 'Low confidence'): Locator {
    return this.page.getByRole('group', { name: 'Show items' }).getByRole('button', { name });
  }

  metric(model: string, question: string, metric: string): Locator {
    return this.metrics.locator(`[data-metric="${model} ${question} ${metric}"]`);
  }
}
