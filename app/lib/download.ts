// Saves text as a file through a temporary object URL (the browser's download). One place for
// every export the UI offers (answers, project reports, spec files).
export function downloadText(text: string, type: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
