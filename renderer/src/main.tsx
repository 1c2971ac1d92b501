import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { applyTheme, useApp } from './stores/app-store';
import { followMain } from './stores/main-link';
import { resolveBridge } from './transport/bridge';
import './styles.css';

applyTheme(useApp.getState().theme);
window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => applyTheme(useApp.getState().theme));
followMain(resolveBridge());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
