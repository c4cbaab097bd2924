/**
 * Saves text as a file the browser way (a Blob behind an <a download>): nothing is sent anywhere. In the desktop app
 * the session lets exactly these downloads through, to the native Save dialog (electron/main/session-policy.ts).
 */
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
  // The download may read the blob only once a Save dialog is answered (Electron): keep it a minute, then free it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
