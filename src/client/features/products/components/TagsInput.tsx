import { useId, useState, type KeyboardEvent } from 'react';
import { TAG_MAX, TAGS_MAX } from '@shared/constants.js';
import { normalizeTags } from '@shared/tags.js';
import { controlClasses } from '@/components/ui/Field.js';

interface TagsInputProps {
  label: string;
  tags: string[];
  onChange: (tags: string[]) => void;
  error?: string | undefined;
}

/**
 * Tags as chips: Enter or a comma adds what was typed (trimmed, kept once whatever its case),
 * each chip's × removes it, and Backspace in an empty field removes the last one.
 */
export function TagsInput({ label, tags, onChange, error }: TagsInputProps) {
  const id = useId();
  const [text, setText] = useState('');

  const add = () => {
    if (text.trim() === '') return;
    onChange(normalizeTags([...tags, text]));
    setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      add();
    } else if (event.key === 'Backspace' && text === '' && tags.length > 0) {
      onChange(tags.slice(0, -1));
    }
  };

  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-900">
        {label}
      </label>
      {tags.length > 0 && (
        <ul aria-label={label} className="mt-2 flex flex-wrap gap-2">
          {tags.map((tag) => (
            <li
              key={tag}
              className="inline-flex items-center gap-1 rounded-full bg-indigo-50 py-0.5 pr-1 pl-2.5 text-sm text-indigo-800"
            >
              {tag}
              <button
                type="button"
                aria-label={`Remove tag ${tag}`}
                onClick={() => onChange(tags.filter((kept) => kept !== tag))}
                className="rounded-full px-1.5 text-indigo-700 hover:bg-indigo-100"
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        id={id}
        type="text"
        value={text}
        maxLength={TAG_MAX}
        disabled={tags.length >= TAGS_MAX}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={add}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint`}
        className={`mt-2 ${controlClasses}`}
      />
      <p id={`${id}-hint`} className={`mt-1 text-sm ${error ? 'text-red-700' : 'text-gray-600'}`}>
        {error ?? `Press Enter after each tag; at most ${TAGS_MAX}.`}
      </p>
    </div>
  );
}
