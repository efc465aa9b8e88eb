import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';

function Placeholder() {
  return (
    <main className="min-h-screen bg-gray-900 text-white grid place-items-center">
      <div className="text-center">
        <h1 className="text-3xl font-bold">Stockroom</h1>
        <p className="mt-2 text-gray-300">
          The screens arrive with the React app issue. The API is at /api/docs.
        </p>
      </div>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Placeholder />
  </StrictMode>,
);
