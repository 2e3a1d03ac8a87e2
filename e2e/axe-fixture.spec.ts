import { expect, test } from '@playwright/test';
import { violations } from './fixtures/axe';

// The audit every journey runs finds what it must on a page made to break it, with every node of
// each violation: it asks axe to work out all the nodes of violations only (resultTypes), so a
// change there could otherwise pass every state of every journey.
test('the accessibility audit names low contrast, an image without text and an empty button, each at every place', async ({ page }) => {
  await page.setContent(
    '<html lang="en"><head><title>Audit</title></head><body><main><h1>Audit</h1>' +
      '<p class="pale">Words too pale to read</p>' +
      '<p>Words dark enough</p>' +
      '<p class="pale">More pale words</p>' +
      '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">' +
      '<button></button>' +
      '<style>.pale { color: #ccc; background-color: #fff }</style>' +
      '</main></body></html>',
  );
  const found = await violations(page);
  expect(found.map((f) => f.id).sort()).toEqual(['button-name', 'color-contrast', 'image-alt']);
  expect(found.find((f) => f.id === 'color-contrast')?.nodes).toEqual(['.pale:nth-child(2)', '.pale:nth-child(4)']);
});
