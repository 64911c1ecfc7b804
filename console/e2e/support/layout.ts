import type { Page } from 'playwright-core';

/**
 * What makes a page scroll sideways: the page itself wider than the window, or a box (a table's scroll container)
 * whose content is wider than it and scrolls. Described so that a failure says which.
 */
export function sidewaysScroll(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const wide: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth)
      wide.push(`page: ${root.scrollWidth} px in a ${window.innerWidth} px window`);
    for (const el of document.querySelectorAll('body *')) {
      const overflow = getComputedStyle(el).overflowX;
      if ((overflow === 'auto' || overflow === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
        wide.push(
          `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join('.')}: ${el.scrollWidth} px in ${el.clientWidth} px, around "${el.textContent?.slice(0, 40) ?? ''}"`,
        );
      }
    }
    return wide;
  });
}
