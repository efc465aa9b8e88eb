import { afterAll } from 'vitest';
import { runFileEnd } from './file-end.js';

// A setup file runs again for every test file, even where the modules are shared between files.
afterAll(runFileEnd);
