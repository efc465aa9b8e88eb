import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CodeInput } from '@/components/forms/CodeInput.js';

const boxes = () =>
  Array.from({ length: 6 }, (_, index) => screen.getByLabelText(`Digit ${index + 1} of 6`));
const values = () => boxes().map((box) => (box as HTMLInputElement).value);

function setup() {
  const onComplete = vi.fn();
  const user = userEvent.setup();
  render(<CodeInput onComplete={onComplete} />);
  return { onComplete, user };
}

describe('CodeInput', () => {
  it('has six labelled boxes, the first focused', () => {
    setup();
    expect(boxes()).toHaveLength(6);
    expect(boxes()[0]).toHaveFocus();
  });

  it('takes one digit per box and moves on to the next', async () => {
    const { user, onComplete } = setup();
    await user.keyboard('12');
    expect(values()).toEqual(['1', '2', '', '', '', '']);
    expect(boxes()[2]).toHaveFocus();
    expect(onComplete).not.toHaveBeenCalled();
  });

  it('ignores anything but digits', async () => {
    const { user } = setup();
    await user.keyboard('a-1');
    expect(values()).toEqual(['1', '', '', '', '', '']);
  });

  it('submits on its own once the sixth digit is in', async () => {
    const { user, onComplete } = setup();
    await user.keyboard('123456');
    expect(values()).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(onComplete).toHaveBeenCalledTimes(1);
    expect(onComplete).toHaveBeenCalledWith('123456');
  });

  it('goes back to the previous box on Backspace', async () => {
    const { user } = setup();
    await user.keyboard('123');
    expect(boxes()[3]).toHaveFocus();
    await user.keyboard('{Backspace}');
    expect(values()).toEqual(['1', '2', '', '', '', '']);
    expect(boxes()[2]).toHaveFocus();
    await user.keyboard('{Backspace}{Backspace}');
    expect(values()).toEqual(['', '', '', '', '', '']);
    expect(boxes()[0]).toHaveFocus();
  });

  it('clears a filled box on Backspace and stays there', async () => {
    const { user } = setup();
    await user.keyboard('12');
    await user.click(boxes()[0]!);
    await user.keyboard('{Backspace}');
    expect(values()).toEqual(['', '2', '', '', '', '']);
    expect(boxes()[0]).toHaveFocus();
  });

  it('replaces the digit of a filled box', async () => {
    const { user } = setup();
    await user.keyboard('12');
    await user.click(boxes()[0]!);
    await user.keyboard('7');
    expect(values()).toEqual(['7', '2', '', '', '', '']);
    expect(boxes()[1]).toHaveFocus();
  });

  it('spreads a pasted code over the boxes and submits it', async () => {
    const { user, onComplete } = setup();
    await user.paste(' 654 321 ');
    expect(values()).toEqual(['6', '5', '4', '3', '2', '1']);
    expect(onComplete).toHaveBeenCalledWith('654321');
  });

  it('puts a whole pasted code in from the first box, wherever the focus is', async () => {
    const { user, onComplete } = setup();
    await user.click(boxes()[3]!);
    await user.paste('987654');
    expect(values()).toEqual(['9', '8', '7', '6', '5', '4']);
    expect(onComplete).toHaveBeenCalledWith('987654');
  });

  it('pastes part of a code from the focused box on', async () => {
    const { user, onComplete } = setup();
    await user.keyboard('12');
    await user.paste('34');
    expect(values()).toEqual(['1', '2', '3', '4', '', '']);
    expect(boxes()[4]).toHaveFocus();
    expect(onComplete).not.toHaveBeenCalled();
  });
});
