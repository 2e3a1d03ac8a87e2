/**
 * Monitor: what live answers to a saved question set (or one capture rule) look like now beside a
 * reference window: volume, cost, latency, escalations, refusals, drift with an alert, and live
 * accuracy once people review captured items, with the ways back into Review and Evaluations. What
 * the shell may use of it is exported here. It imports captures (the rules), question sets (their
 * names) and evaluations (the datasets' labelled counts).
 */
export { MonitorScreen } from './MonitorScreen';
