import { useState } from 'react';
import { Button } from '@/components/ui/Button.js';
import { TextField } from '@/components/ui/Field.js';

/** A code typed by hand: what is left when there is no camera, or a label will not read. */
export function TypedCode({ onCode }: { onCode: (code: string) => void }) {
  const [code, setCode] = useState('');
  return (
    <form
      className="flex items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (!code.trim()) return;
        onCode(code.trim());
        setCode('');
      }}
    >
      <TextField
        label="Type a code"
        className="min-w-0 flex-1"
        value={code}
        onChange={(event) => setCode(event.target.value)}
        autoComplete="off"
        spellCheck={false}
      />
      <Button type="submit" variant="secondary">
        Find
      </Button>
    </form>
  );
}
