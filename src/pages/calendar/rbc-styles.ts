import base from 'react-big-calendar/lib/css/react-big-calendar.css?raw';
import dragAndDrop from 'react-big-calendar/lib/addons/dragAndDrop/styles.css?raw';

// react-big-calendar's stylesheet, with its costliest rules narrowed (measured in Chromium on a
// week of a thousand lessons): `.rbc-calendar *, *:before, *:after {box-sizing: inherit}` styled
// two pseudo-elements of every element and, being `inherit`, kept the browser from sharing
// styles between the events; border-box is what it inherits anyway (.rbc-calendar's own).
// `.rbc-time-content > * + * > *` tested every element.
const FIXES: Array<[string, string]> = [
  [
    '.rbc-calendar *,\n.rbc-calendar *:before,\n.rbc-calendar *:after {\n  -webkit-box-sizing: inherit;\n          box-sizing: inherit;',
    '.rbc-calendar * {\n  box-sizing: border-box;',
  ],
  ['.rbc-time-content > * + * > * {', '.rbc-time-content > * + * > .rbc-timeslot-group,\n.rbc-time-content > * + * > .rbc-events-container {'],
  ['.rbc-rtl .rbc-time-content > * + * > * {', '.rbc-rtl .rbc-time-content > * + * > .rbc-timeslot-group {'],
];

let css = base;
for (const [from, to] of FIXES) css = css.replace(from, to);

if (typeof document !== 'undefined' && !document.querySelector('style[data-rbc]')) {
  const style = document.createElement('style');
  style.dataset.rbc = '';
  style.textContent = `${css}\n${dragAndDrop}`;
  document.head.appendChild(style);
}
