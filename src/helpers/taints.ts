import type { Taint, Toleration } from '../apimachinery/types';

/** pkg/apis/core/v1 Toleration.ToleratesTaint (Equal and Exists; an empty key with Exists matches every key). */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (t.operator === undefined || t.operator === '' || t.operator === 'Equal')
    return (t.value ?? '') === (taint.value ?? '');
  return t.operator === 'Exists';
}
