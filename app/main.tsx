// Entry point of the UI thread: takes WebRTC off the page, mounts React and registers the service
// worker.
import { removeWebRtc } from './lib/remove-webrtc';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { startPwa } from './pwa';
import './styles.css';

removeWebRtc(window);

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
startPwa();
