/**
 * Review: people answering a dataset's unlabelled items (captured live requests above all) one at
 * a time with the keyboard, each answer becoming the item's expected answer. What the shell may use
 * of it is exported here. It imports evaluations (the datasets list), question sets (their list)
 * and settings (the `review_blind` setting).
 */
export { ReviewScreen } from './ReviewScreen';
