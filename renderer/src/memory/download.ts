/** Saves text as a file the browser way (a Blob behind an <a download>): nothing is sent anywhere. */
export function downloadText(filename: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The click has started the download synchronously; the URL is not needed after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
