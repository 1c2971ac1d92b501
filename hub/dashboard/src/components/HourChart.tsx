// The card total per hour today beside the same weekday last week, drawn as SVG at the width it is given
// (so its words stay readable on a phone), with the same numbers in words and as a table.
import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import type { HourPointSchema } from '../../../../shared/hub-dashboard-contract';
import { chartHours, chartScale, chartSummary, formatCount, formatNaira, hourRange, nairaCompact } from '../format';

type HourPoint = z.infer<typeof HourPointSchema>;

export function HourChart({
  points,
  dayLabel,
  lastWeekLabel,
  currentHour,
}: {
  points: HourPoint[];
  dayLabel: string;
  lastWeekLabel: string;
  currentHour: number | null;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(([e]) => e && setWidth(Math.max(280, Math.floor(e.contentRect.width))));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const shown = chartHours(points);
  const max = Math.max(...shown.map((p) => Math.max(p.paidKobo, p.lastWeekPaidKobo)));
  const { top, ticks } = chartScale(max);
  const H = 240;
  const left = 58;
  const bottom = 28;
  const plotW = width - left - 8;
  const plotH = H - bottom - 10;
  const slot = plotW / shown.length;
  const barW = Math.max(3, Math.min(18, slot / 2 - 2));
  const y = (kobo: number) => 10 + plotH - (kobo / top) * plotH;
  const labelEvery = slot < 26 ? 3 : slot < 40 ? 2 : 1;
  const summary = chartSummary(points);

  return (
    <figure className="chart" aria-labelledby="chart-title">
      <figcaption>
        <h2 id="chart-title">Card total per hour</h2>
        <p className="hint" data-testid="chart-summary">
          {summary}
        </p>
      </figcaption>
      <div ref={box} className="chart-box">
        <svg
          width={width}
          height={H}
          role="img"
          aria-label={`Bar chart of the card total per hour, ${dayLabel} beside ${lastWeekLabel}. ${summary}`}
          data-testid="hour-chart"
        >
          {ticks.map((t) => (
            <g key={t}>
              <line x1={left} x2={width - 8} y1={y(t)} y2={y(t)} className="chart-grid" />
              <text x={left - 6} y={y(t) + 4} textAnchor="end" className="chart-axis">
                {nairaCompact(t)}
              </text>
            </g>
          ))}
          {shown.map((p, i) => {
            const x0 = left + i * slot + slot / 2;
            return (
              <g key={p.hour} data-hour={p.hour}>
                {currentHour === p.hour ? (
                  <rect x={left + i * slot} y={10} width={slot} height={plotH} className="chart-now" />
                ) : null}
                <rect
                  x={x0 - barW - 1}
                  y={y(p.lastWeekPaidKobo)}
                  width={barW}
                  height={Math.max(0, 10 + plotH - y(p.lastWeekPaidKobo))}
                  className="bar-lastweek"
                >
                  <title>{`${hourRange(p.hour)} ${lastWeekLabel}: ${formatNaira(p.lastWeekPaidKobo)} (${formatCount(p.lastWeekPaidCount)} paid)`}</title>
                </rect>
                <rect
                  x={x0 + 1}
                  y={y(p.paidKobo)}
                  width={barW}
                  height={Math.max(0, 10 + plotH - y(p.paidKobo))}
                  className="bar-today"
                >
                  <title>{`${hourRange(p.hour)} ${dayLabel}: ${formatNaira(p.paidKobo)} (${formatCount(p.paidCount)} paid)`}</title>
                </rect>
                {i % labelEvery === 0 ? (
                  <text x={x0} y={H - 8} textAnchor="middle" className="chart-axis">
                    {String(p.hour).padStart(2, '0')}
                  </text>
                ) : null}
              </g>
            );
          })}
          <line x1={left} x2={width - 8} y1={10 + plotH} y2={10 + plotH} className="chart-baseline" />
        </svg>
      </div>
      <div className="chart-legend" aria-hidden="true">
        <span>
          <span className="swatch swatch-today" /> {dayLabel}
        </span>
        <span>
          <span className="swatch swatch-lastweek" /> {lastWeekLabel}
        </span>
        <span className="hint">Hours in Lagos time; paid sales only.</span>
      </div>
      <details className="chart-table">
        <summary>The same as a table</summary>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Hour</th>
                <th scope="col" className="num">
                  {dayLabel}
                </th>
                <th scope="col" className="num">
                  Paid
                </th>
                <th scope="col" className="num">
                  {lastWeekLabel}
                </th>
                <th scope="col" className="num">
                  Paid
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((p) => (
                <tr key={p.hour}>
                  <th scope="row">{hourRange(p.hour)}</th>
                  <td className="num">{formatNaira(p.paidKobo)}</td>
                  <td className="num">{formatCount(p.paidCount)}</td>
                  <td className="num">{formatNaira(p.lastWeekPaidKobo)}</td>
                  <td className="num">{formatCount(p.lastWeekPaidCount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
