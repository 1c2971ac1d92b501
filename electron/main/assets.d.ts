// Imports with `?asset` (electron-vite): the path of a file copied next to the built main process.
/// <reference types="electron-vite/node" />
