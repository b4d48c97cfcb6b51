// A library in which one document crowds out the rest of a chunk page: a long survey whose every
// chunk says "pelican" many times, and twelve short harbour reports that say it once, so the
// first 40 chunks of the keyword ranking all belong to the survey. For the tests of pages of
// documents (hybrid search, library plans). Test support only.

export interface PageDocument {
  path: string;
  title: string;
  text: string;
}

export const PELICAN_SURVEY: PageDocument = {
  path: 'birds/pelican-survey.txt',
  title: 'Pelican survey',
  text: Array.from(
    { length: 60 },
    (_, i) =>
      `Part ${i}: pelican pelican pelican. The pelican colony counts pelicans on the cliffs, ` +
      `pelican chicks and pelican nests, and every pelican census repeats the pelican count ` +
      `with care. More pelican notes follow in the next part of the pelican survey report.`,
  ).join('\n\n'),
};

export const HARBOUR_REPORTS: PageDocument[] = Array.from({ length: 12 }, (_, i) => ({
  path: `harbour/report-${String(i).padStart(2, '0')}.txt`,
  title: `Harbour report ${i}`,
  text:
    `The harbour master logged ${i + 2} ships, the tide tables and the weather, and noted ` +
    `one pelican on the pier among the gulls, cormorants and terns of the morning.`,
}));
