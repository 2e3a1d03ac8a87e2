/** Which way each metric is better (the sign of a delta, the best in a row); a metric not named here has no best. */
export const HIGHER_IS_BETTER: Record<string, boolean> = {
  accuracy: true,
  precision: true,
  recall: true,
  f1: true,
  auroc: true,
  macro_f1: true,
  exact: true,
  qwk: true,
  mean_iou: true,
  pass_rate: true,
  brier: false,
  log_loss: false,
  ece: false,
  mae: false,
};
