import { describe, expect, it } from 'vitest';
import { AXIS_FONT_PX, axisLabelRoom } from '../../src/renderer/src/lib/chart-layout.js';

describe('room for the value axis', () => {
  it('keeps the usual 48 px for short labels', () => {
    expect(axisLabelRoom(['0', '500', '1K', '1.5K'])).toBe(48);
    expect(axisLabelRoom([])).toBe(48);
  });

  it('grows with the widest label, at more than a digit’s width (0.64 em) per character', () => {
    const room = axisLabelRoom(['$0', '$0.000010', '$0.000020', '$0.000040']);
    expect(room).toBeGreaterThan(9 * 0.64 * AXIS_FONT_PX + 6);
    expect(axisLabelRoom(['$0.0000100'])).toBeGreaterThan(room);
  });
});
