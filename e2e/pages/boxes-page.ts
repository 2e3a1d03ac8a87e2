import type { Locator, Page } from '@playwright/test';

/** The Boxes screen: questions, the review queue, the editor and the review bar. */
export class BoxesPage {
  readonly queue: Locator;
  readonly canvas: Locator;
  readonly image: Locator;
  readonly zoom: Locator;
  readonly readout: Locator;
  readonly legend: Locator;
  /** The dataset under review. */
  readonly dataset: Locator;

  constructor(readonly page: Page) {
    this.queue = page.getByRole('list', { name: 'Images' });
    this.canvas = page.getByTestId('box-canvas');
    this.image = page.getByTestId('box-image');
    this.zoom = page.getByTestId('zoom-level');
    this.readout = page.getByTestId('cursor-readout');
    this.legend = page.locator('.box-legend');
    this.dataset = page.getByRole('combobox', { name: 'Dataset', exact: true });
  }

  item(name: string): Locator {
    return this.queue.getByRole('listitem').filter({ hasText: name });
  }

  /** Picks a folder on disk, as a person would in the folder dialog. */
  async addFolder(dir: string): Promise<void> {
    await this.page.locator('label.file-button', { hasText: 'Add a folder' }).locator('input').setInputFiles(dir);
  }

  async importTruth(files: { name: string; text: string }[]): Promise<void> {
    await this.page
      .locator('label.file-button', { hasText: 'Import truth' })
      .locator('input')
      .setInputFiles(files.map((f) => ({ name: f.name, mimeType: 'application/json', buffer: Buffer.from(f.text) })));
  }

  async question(index: number, name: string, locate: string): Promise<void> {
    await this.page.getByLabel(`Question ${index} name`).fill(name);
    await this.page.getByLabel(`Question ${index}: locate`).fill(locate);
  }

  /** Drags a box from one image pixel to another, wherever the image is shown and at any zoom. */
  async draw(natural: { width: number; height: number }, from: [number, number], to: [number, number]): Promise<void> {
    await this.canvas.scrollIntoViewIfNeeded();
    const area = (await this.image.boundingBox())!;
    const at = ([x, y]: [number, number]) => [area.x + (x / natural.width) * area.width, area.y + (y / natural.height) * area.height] as const;
    await this.page.mouse.move(...at(from));
    await this.page.mouse.down();
    await this.page.mouse.move(...at([(from[0] + to[0]) / 2, (from[1] + to[1]) / 2]), { steps: 3 });
    await this.page.mouse.move(...at(to), { steps: 3 });
    await this.page.mouse.up();
  }

  async zoomPercent(): Promise<number> {
    return Number((await this.zoom.textContent())!.replace('%', ''));
  }
}
