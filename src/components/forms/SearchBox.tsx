import { useId, useState, type FormEvent } from 'react';

interface Props {
  label: string;
  submitLabel: string;
  initial?: string;
  onSearch: (query: string) => void;
}

/** A labelled search field that reports its query on submit (an empty query clears the filter). */
export function SearchBox({ label, submitLabel, initial = '', onSearch }: Props) {
  const id = useId();
  const [query, setQuery] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(query.trim());
  };
  return (
    <form role="search" onSubmit={submit} style={{ display: 'flex', gap: 8, alignItems: 'flex-end', flexWrap: 'wrap', marginBottom: 12 }}>
      <div className="field" style={{ margin: 0, flex: '1 1 240px' }}>
        <label htmlFor={id}>{label}</label>
        <input id={id} type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      <button type="submit" className="btn btn-primary">
        {submitLabel}
      </button>
    </form>
  );
}
