import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { applyTheme, useDash } from './store';
import './styles.css';

applyTheme(useDash.getState().theme);
window
  .matchMedia('(prefers-color-scheme: dark)')
  .addEventListener('change', () => applyTheme(useDash.getState().theme));
window.addEventListener('popstate', () => useDash.getState().syncFromLocation());
void useDash.getState().start();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
