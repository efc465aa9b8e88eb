import { useEffect, useRef } from 'react';
import type { StockOverTime } from '@shared/schemas/reports.js';
import { formatCount, formatPrice } from '@/lib/format.js';
import { axisSize, dollarLabels, unitLabels } from './chart-axes.js';

const HEIGHT = 260;

/** uPlot and its stylesheet, loaded the first time a chart is drawn: only this screen uses them. */
const loadChart = () =>
  Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([m]) => m.default);

/**
 * Stock value (left axis) and units (right axis) at the end of each day, one chart. It is a
 * picture to the screen reader, which reads the same figures in the table beside it.
 */
export function StockChart({ days, label }: { days: StockOverTime['days']; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let chart: { destroy(): void; setSize(size: { width: number; height: number }): void } | null =
      null;
    let cancelled = false;
    let observer: ResizeObserver | undefined;
    void loadChart().then((uPlot) => {
      if (cancelled) return;
      const data: [number[], number[], number[]] = [
        days.map((day) => Date.parse(day.date) / 1000),
        days.map((day) => Number(day.value)),
        days.map((day) => day.units),
      ];
      chart = new uPlot(
        {
          width: element.clientWidth,
          height: HEIGHT,
          // The dates are UTC days: shown as such whatever the browser's time zone.
          tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          scales: { x: { time: true } },
          series: [
            {},
            {
              label: 'Value',
              scale: '$',
              stroke: '#4f46e5',
              width: 2,
              value: (_u, v) => (v === null ? '–' : formatPrice(v)),
            },
            {
              label: 'Units',
              scale: 'units',
              stroke: '#059669',
              width: 2,
              value: (_u, v) => (v === null ? '–' : formatCount(v)),
            },
          ],
          axes: [
            {},
            { scale: '$', values: dollarLabels, size: axisSize },
            {
              scale: 'units',
              side: 1,
              grid: { show: false },
              values: unitLabels,
              size: axisSize,
            },
          ],
        },
        data,
        element,
      );
      // Redrawn to the box's width as it changes (a browser without the observer keeps the first).
      if (typeof ResizeObserver === 'undefined') return;
      observer = new ResizeObserver(() =>
        chart?.setSize({ width: element.clientWidth, height: HEIGHT }),
      );
      observer.observe(element);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [days]);
  return (
    <div
      ref={box}
      role="img"
      aria-label={label}
      data-testid="stock-chart"
      className="min-h-65 w-full min-w-0 overflow-hidden"
    />
  );
}
