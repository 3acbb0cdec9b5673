import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { CheckResult } from '../api.js';

/** One colour per region, in order (distinct for the usual colour-vision deficiencies). */
const COLOURS = ['#1f5f4a', '#2563eb', '#c2410c', '#7c3aed', '#0e7490', '#a16207'];

/** A series' newest check: its time, null when it failed, undefined when the region has none. */
const newestOf = (values: ArrayLike<number | null | undefined>) => {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] !== undefined) return values[i];
  return undefined;
};

/**
 * Response time per region over the loaded results (uPlot; this module is loaded only by the monitor
 * detail page, so the first page load stays small). Failed checks leave a gap.
 */
export default function ResponseChart(props: { results: CheckResult[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  const regions = [...new Set(props.results.map((r) => r.location))].sort();
  const times = [...new Set(props.results.map((r) => Math.floor(Date.parse(r.scheduled_at) / 1000)))].sort(
    (a, b) => a - b,
  );
  const index = new Map(times.map((t, i) => [t, i]));
  // uPlot: `undefined` is "no check from this region at this time" (the line goes on), `null` a gap
  // (a failed check: there is no response time to draw).
  const series = regions.map(() => times.map((): number | null | undefined => undefined));
  for (const r of props.results) {
    const i = index.get(Math.floor(Date.parse(r.scheduled_at) / 1000))!;
    series[regions.indexOf(r.location)]![i] = r.ok ? r.response_time_ms : null;
  }
  const data = [times, ...series] as uPlot.AlignedData;
  const shape = regions.join(',');

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = () => Math.max(280, el.clientWidth);
    plot.current = new uPlot(
      {
        width: width(),
        height: 220,
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(10, max * 1.15)] } },
        axes: [
          // Ticks at least 90 px apart: the first one carries the date ("11/27/26 4:18pm"), and at
          // uPlot's default 50 px it ran into the next one.
          { stroke: '#5d6778', grid: { stroke: '#eef0f3' }, space: 90 },
          {
            stroke: '#5d6778',
            grid: { stroke: '#eef0f3' },
            values: (_u, v) => v.map((x) => `${x} ms`),
            size: 64,
          },
        ],
        series: [
          {
            label: 'Time',
            // Off the chart, the legend shows the newest check (so it is never empty); on it, the one pointed at.
            value: (u: uPlot, v: number | null | undefined) => {
              const t = u.cursor.idx == null ? u.data[0].at(-1) : v;
              return t == null
                ? ''
                : `${u.cursor.idx == null ? 'newest ' : ''}${new Date(t * 1000).toLocaleTimeString()}`;
            },
          },
          ...regions.map((r, i) => ({
            label: r,
            stroke: COLOURS[i % COLOURS.length],
            width: 2,
            spanGaps: false,
            value: (u: uPlot, v: number | null | undefined, sidx: number) => {
              if (u.cursor.idx != null) return v == null ? '—' : `${Math.round(v)} ms`;
              const newest = newestOf(u.data[sidx]!);
              return newest === undefined ? '—' : newest === null ? 'failed' : `${Math.round(newest)} ms`;
            },
          })),
        ],
      },
      data,
      el,
    );
    // Only a new width redraws (a resize to the same size would clear the canvas for nothing).
    const resize = new ResizeObserver(() => {
      const p = plot.current;
      if (p && Math.abs(p.width - width()) > 1) p.setSize({ width: width(), height: 220 });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, [shape]);

  useEffect(() => {
    plot.current?.setData(data);
  });

  return <div class="chart" ref={box} role="img" aria-label={props.label} />;
}
