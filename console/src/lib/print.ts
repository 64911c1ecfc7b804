/**
 * Prints a document the API wrote (a receipt) without leaving the page: a hidden frame holds it and the browser's
 * print dialog prints the frame alone. The frame is sandboxed without scripts (only this page may call its print),
 * so what the document holds never runs here; its styles are inline, which the console's policy allows. The last
 * frame stays (hidden) until the next print: removing it while the dialog is open would cancel the print.
 */
export function printHtml(html: string, title: string): void {
  document.querySelector('iframe[data-print-frame]')?.remove();
  const frame = document.createElement('iframe');
  frame.dataset.printFrame = '';
  frame.title = title;
  frame.setAttribute('sandbox', 'allow-same-origin allow-modals');
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  Object.assign(frame.style, { position: 'fixed', right: '0', bottom: '0', width: '0', height: '0', border: '0' });
  frame.addEventListener('load', () => frame.contentWindow?.print(), { once: true });
  frame.srcdoc = html;
  document.body.append(frame);
}

/** Saves what the API sent as a file (a CSV export), as a download named `filename`. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled: the download has its own copy by then.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
