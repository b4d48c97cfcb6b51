// The search filters: a toggle with the number of active filters, "Clear filters", and the panel
// (path glob, exact text, minimum grade, modified dates, document types). Filters live in the
// app store; an emptied field removes its filter.
import { useState } from 'react';
import { DisclosureButton } from './disclosure-button';
import { MIME_LABELS } from '../lib/format';
import { useAppStore } from '../state/app-store';
import type { QualityGrade, SearchFilters } from '../../workers/shared/types';

type FilterPatch = { [K in keyof SearchFilters]?: SearchFilters[K] | undefined };

const dateValue = (ms?: number) => (ms ? new Date(ms).toISOString().slice(0, 10) : '');
const parseDate = (v: string) => (v ? Date.parse(`${v}T00:00:00Z`) : undefined);

export function FilterBar() {
  const filters = useAppStore((s) => s.filters);
  const setFilters = useAppStore((s) => s.setFilters);
  const [openPanel, setOpenPanel] = useState(false);
  const active = Object.keys(filters).length;
  return (
    <div className="filters">
      <DisclosureButton open={openPanel} onToggle={setOpenPanel} testId="filters-toggle">
        Filters{active ? ` (${active})` : ''}
      </DisclosureButton>
      {active > 0 && (
        <button className="link" onClick={() => setFilters({})}>
          Clear filters
        </button>
      )}
      {openPanel && <FilterPanel />}
    </div>
  );
}

/** Merges a patch into the filters, dropping the ones left empty. */
function useFilterUpdate(): [SearchFilters, (patch: FilterPatch) => void] {
  const filters = useAppStore((s) => s.filters);
  const setFilters = useAppStore((s) => s.setFilters);
  const update = (patch: FilterPatch) => {
    const next: Record<string, unknown> = { ...filters, ...patch };
    for (const key of Object.keys(next)) {
      const v = next[key];
      if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) delete next[key];
    }
    setFilters(next);
  };
  return [filters, update];
}

function FilterPanel() {
  const [filters, update] = useFilterUpdate();
  return (
    <div className="filter-grid">
      <TextFilter
        label="Path"
        placeholder="e.g. notes/**/*.md"
        value={filters.pathGlob}
        onChange={(pathGlob) => update({ pathGlob })}
        testId="filter-path"
      />
      <TextFilter
        label="Contains"
        placeholder="exact text"
        value={filters.contains}
        onChange={(contains) => update({ contains })}
        testId="filter-contains"
      />
      <label>
        Minimum grade
        <select
          value={filters.minGrade ?? ''}
          onChange={(e) =>
            update({
              minGrade: (e.currentTarget.value || undefined) as QualityGrade | undefined,
            })
          }
          data-testid="filter-grade"
        >
          <option value="">any</option>
          {(['A', 'B', 'C', 'D'] as const).map((g) => (
            <option key={g} value={g}>
              {g} or better{g === 'C' ? ' (own documents are C)' : ''}
            </option>
          ))}
        </select>
      </label>
      <DateFilter
        label="Modified after"
        value={filters.modifiedAfter}
        onChange={(modifiedAfter) => update({ modifiedAfter })}
      />
      <DateFilter
        label="Modified before"
        value={filters.modifiedBefore}
        onChange={(modifiedBefore) => update({ modifiedBefore })}
      />
      <TypeFilter selected={filters.mime} onChange={(mime) => update({ mime })} />
    </div>
  );
}

function TextFilter(props: {
  label: string;
  placeholder: string;
  value: string | undefined;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <label>
      {props.label}
      <input
        placeholder={props.placeholder}
        value={props.value ?? ''}
        onChange={(e) => props.onChange(e.currentTarget.value)}
        data-testid={props.testId}
      />
    </label>
  );
}

function DateFilter(props: {
  label: string;
  value: number | undefined;
  onChange: (ms: number | undefined) => void;
}) {
  return (
    <label>
      {props.label}
      <input
        type="date"
        value={dateValue(props.value)}
        onChange={(e) => props.onChange(parseDate(e.currentTarget.value))}
      />
    </label>
  );
}

function TypeFilter({
  selected,
  onChange,
}: {
  selected: string[] | undefined;
  onChange: (mimes: string[]) => void;
}) {
  return (
    <fieldset>
      <legend>Type</legend>
      {Object.entries(MIME_LABELS).map(([mime, label]) => (
        <label key={mime} className="check">
          <input
            type="checkbox"
            checked={selected?.includes(mime) ?? false}
            onChange={(e) => {
              const set = new Set(selected ?? []);
              if (e.currentTarget.checked) set.add(mime);
              else set.delete(mime);
              onChange([...set]);
            }}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}
