import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { Location } from '@shared/schemas/locations/locations.js';
import { Button } from '@/components/ui/Button.js';
import { CardSection } from '@/components/ui/Card.js';
import { controlClasses, TextField } from '@/components/ui/Field.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { subtreeIds, type TreeRow } from './tree.js';

/** What the form sends: a name, where it goes (null: the top), and a code when one is typed. */
interface LocationValues {
  name: string;
  parentId: string | null;
  code?: string;
}

interface LocationFieldsProps {
  rows: TreeRow[];
  /** The location edited; none for a new one. */
  location?: Location;
  submitLabel: string;
  busyLabel: string;
  onSubmit(values: LocationValues): Promise<unknown>;
}

/**
 * A location's name, its place in the tree (never itself or one of its sub-locations) and its
 * code. The server checks every rule; its refusal shows under the form.
 */
export function LocationFields({
  rows,
  location,
  submitLabel,
  busyLabel,
  onSubmit,
}: LocationFieldsProps) {
  const [name, setName] = useState(location?.name ?? '');
  const [parentId, setParentId] = useState(location?.parentId ?? '');
  const [code, setCode] = useState(location?.code ?? '');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const parentField = useId();
  const excluded = location ? subtreeIds(rows, location.id) : new Set<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const typed = code.trim();
      await onSubmit({
        name,
        parentId: parentId === '' ? null : parentId,
        ...(typed && typed !== location?.code ? { code: typed } : {}),
      });
      if (!location) {
        setName('');
        setCode('');
      }
    } catch (caught) {
      setError(getErrorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
      <TextField
        label="Name"
        value={name}
        maxLength={60}
        onChange={(event) => setName(event.target.value)}
        placeholder="Aisle 3"
      />
      <div>
        <label htmlFor={parentField} className="block text-sm/6 font-medium text-gray-900">
          Inside
        </label>
        <select
          id={parentField}
          className={`${controlClasses} mt-2`}
          value={parentId}
          onChange={(event) => setParentId(event.target.value)}
        >
          <option value="">Nothing (a top-level location)</option>
          {rows
            .filter((row) => !excluded.has(row.id))
            .map((row) => (
              <option key={row.id} value={row.id}>
                {row.path}
              </option>
            ))}
        </select>
      </div>
      <TextField
        label="Code"
        value={code}
        maxLength={64}
        onChange={(event) => setCode(event.target.value)}
        hint={location ? undefined : 'Leave empty to have one made, like L-7K3Q9D.'}
      />
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <Button type="submit" busy={busy} busyLabel={busyLabel}>
        {submitLabel}
      </Button>
    </form>
  );
}

/** For editors: a card titled by what the form in it does. */
export function LocationFormCard({ title, children }: { title: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <CardSection id={titleId} title={title} className="space-y-4">
      {children}
    </CardSection>
  );
}
