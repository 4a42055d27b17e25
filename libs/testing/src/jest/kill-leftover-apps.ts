import { AppProcess } from '../app-process';

// After each test file's own afterAll hooks: whatever apps it started and did not stop are ended.
afterAll(() => AppProcess.killAll());
