import type { Page } from 'playwright-core';

/**
 * Visible form controls and buttons without an accessible name (a label, aria-label, aria-labelledby, or a
 * button's text), described so that a failure says which. Every control of every page must have one.
 */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const named = (el: Element): boolean => {
      if (el.getAttribute('aria-label')?.trim()) return true;
      const by = el.getAttribute('aria-labelledby');
      if (by && by.split(/\s+/).some((id) => document.getElementById(id)?.textContent?.trim())) return true;
      if ((el as HTMLInputElement).labels?.length)
        return [...(el as HTMLInputElement).labels!].some((l) => l.textContent?.trim());
      if (el.tagName === 'BUTTON' || el.getAttribute('role') === 'button')
        return Boolean(el.textContent?.trim() || el.getAttribute('title'));
      return false;
    };
    const visible = (el: Element) => {
      const r = (el as HTMLElement).getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    return [
      ...document.querySelectorAll(
        'input:not([type=hidden]), select, textarea, button, [role=button], [role=combobox]',
      ),
    ]
      .filter((el) => visible(el) && !named(el))
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].slice(0, 2).join('.')} in "${el.closest('section, form, table, header, nav')?.textContent?.slice(0, 60) ?? ''}"`,
      );
  });
}

/** Badges (states, roles) whose text is cut short, as "R…" for both ROLLED and REVOKED: a state must be read whole. */
export function cutBadges(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.mantine-Badge-label')]
      .filter((el) => (el as HTMLElement).getBoundingClientRect().width > 0 && el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent ?? ''),
  );
}
