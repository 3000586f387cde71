import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

// antd's icons name themselves in English (`<span role="img" aria-label="left">`), inside antd's
// own widgets too (pagination, date pickers, table filters and sorters, the drawer's ×), and the
// calendar names its month grid "Month View". A screen reader would read those English words in
// the Greek interface. This keeps every such name in the user's language:
// - an icon beside words (a button "Νέο μάθημα" with a +) is decoration: hidden from screen readers;
// - an icon alone in a control (an icon-only button, a filter trigger) names it, translated;
// - the calendar's views get translated names.

/** The controls whose name an icon may give. */
const CONTROL = 'button, a, th, label, [role=button], [role=tab], [role=menuitem], [role=option], [role=switch], [role=checkbox], [role=link]';

/** Words a control shows besides its icons (icons draw SVG and hold no text). */
function hasOwnName(control: Element): boolean {
  if (control.hasAttribute('aria-label') || control.hasAttribute('aria-labelledby')) return true;
  return (control.textContent ?? '').trim() !== '';
}

function nameIcon(icon: HTMLElement, t: TFunction) {
  const current = icon.getAttribute('aria-label');
  // an English name not written here is the icon's own (React may reuse an element for another icon)
  const name = current && current !== icon.dataset.named ? current : (icon.dataset.icon ?? '');
  if (!name) return;
  icon.dataset.icon = name;
  const control = icon.parentElement?.closest(CONTROL);
  if (control && control !== icon && hasOwnName(control)) {
    if (icon.getAttribute('aria-hidden') !== 'true') {
      icon.setAttribute('aria-hidden', 'true');
      icon.removeAttribute('aria-label');
    }
    return;
  }
  const label = t(`icons.${name}`, { defaultValue: '' });
  if (!label) {
    // a name we have no words for: not read out rather than read in English
    icon.setAttribute('aria-hidden', 'true');
    icon.removeAttribute('aria-label');
    return;
  }
  icon.removeAttribute('aria-hidden');
  icon.dataset.named = label;
  if (current !== label) icon.setAttribute('aria-label', label);
}

function nameAll(root: ParentNode, t: TFunction) {
  for (const icon of root.querySelectorAll<HTMLElement>('.anticon[role=img], .anticon[data-icon]')) nameIcon(icon, t);
  // the "to" between a range picker's two dates: a word on a plain span, which may not carry a name
  for (const separator of root.querySelectorAll<HTMLElement>('.ant-picker-separator[aria-label]')) {
    separator.removeAttribute('aria-label');
    separator.setAttribute('aria-hidden', 'true');
  }
  // a required select: antd puts aria-required on the select's box, where no role allows it;
  // it belongs on the combobox inside
  for (const select of root.querySelectorAll<HTMLElement>('.ant-select[aria-required]')) {
    const value = select.getAttribute('aria-required') ?? 'true';
    select.removeAttribute('aria-required');
    select.querySelector('[role=combobox]')?.setAttribute('aria-required', value);
  }
  for (const grid of root.querySelectorAll<HTMLElement>('.rbc-month-view[aria-label]')) {
    const label = t('icons.monthView');
    if (grid.getAttribute('aria-label') !== label) grid.setAttribute('aria-label', label);
  }
}

/** Names icons and widgets in the current language, whenever the page changes or the language does. */
export function AccessibleNames() {
  const { t, i18n } = useTranslation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: every name is written again when the language changes
  useEffect(() => {
    let frame = 0;
    const run = () => {
      frame = 0;
      nameAll(document, t);
    };
    run();
    const observer = new MutationObserver(() => {
      if (!frame) frame = requestAnimationFrame(run);
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['aria-label'] });
    return () => {
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [t, i18n.language]);
  return null;
}
