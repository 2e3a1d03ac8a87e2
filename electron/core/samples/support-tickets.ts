/**
 * The sample offered on first start: a support-triage question set and forty labelled tickets to
 * rehearse with (written for the purpose; the labels are what a support lead would give). Marked as
 * samples wherever they are listed, and removed with one action.
 */
import type { Question } from '../../../shared/schemas/question';

export const SAMPLE_SET_NAME = 'Support triage (sample)';
export const SAMPLE_DATASET_NAME = 'Support tickets (sample)';

export const SAMPLE_QUESTIONS: Record<string, Question> = {
  urgent: {
    type: 'noul',
    instructions: 'Is the ticket urgent: is the customer blocked or losing money right now?',
    criteria: {
      true: 'site down, outage, cannot log in, locked out, payment failed, charged twice, data lost, security breach, everything stopped',
      false: 'a question, how to, feature request, suggestion, feedback, thanks, a copy of an invoice, next month',
    },
  },
  category: {
    type: 'choice',
    instructions: 'What is the ticket about?',
    criteria: {
      billing: 'invoice, charge, refund, payment, card, subscription, price, plan, seats',
      bug: 'error, crash, broken, fails, blank page, bug, slow, logs out, wrong time',
      account: 'login, password, email address, access, locked out, account users, admin, two factor',
      feature: 'would like, feature request, suggestion, please add, an option, could show, feedback',
    },
  },
  tone: {
    type: 'score',
    instructions: 'How upset is the customer?',
    criteria: [
      'calm: polite, thanks, please, a question, how do I, could you, nice',
      'annoyed: frustrated, again, still, annoying, why, nobody told, wrong',
      'angry: furious, unacceptable, cancel, lawyer, right now, stopped, losing, twice',
    ],
  },
};

type Row = [id: string, text: string, urgent: boolean, category: 'billing' | 'bug' | 'account' | 'feature', tone: 0 | 1 | 2];

const TICKETS: Row[] = [
  ['t01', 'I was charged twice for my subscription this month. Please refund the second payment right now.', true, 'billing', 1],
  ['t02', 'Could you send me a copy of the March invoice for our accounts team? Thanks!', false, 'billing', 0],
  ['t03', 'The whole site is down for our team, everything stopped. This is unacceptable.', true, 'bug', 2],
  ['t04', 'It would be great if you could add an export to spreadsheet option.', false, 'feature', 0],
  ['t05', 'I cannot log in since the password reset email never arrived and I am locked out.', true, 'account', 1],
  ['t06', 'How do I change the email address on my account?', false, 'account', 0],
  ['t07', 'The report page shows an error and then a blank page when I open it.', false, 'bug', 1],
  ['t08', 'My card payment failed three times and now the shop is closed for customers.', true, 'billing', 2],
  ['t09', 'Thanks for the quick help last week, everything works fine now.', false, 'account', 0],
  ['t10', 'Please add a dark mode, my eyes would thank you.', false, 'feature', 0],
  ['t11', 'The app crashes every time I upload a photo. Still broken after the update, again.', false, 'bug', 1],
  ['t12', 'We lost all the data from yesterday after the sync. Security breach or bug? We need this fixed now.', true, 'bug', 2],
  ['t13', 'What is the price of the yearly subscription compared with monthly?', false, 'billing', 0],
  ['t14', 'Our invoice shows the wrong company name, can you correct it before next month?', false, 'billing', 0],
  ['t15', 'A new user on our team cannot get access to the shared projects.', false, 'account', 1],
  ['t16', 'Feature request: an option to schedule reports by email.', false, 'feature', 0],
  ['t17', 'Refund my last charge. I cancelled weeks ago and you still took the payment. Furious.', false, 'billing', 2],
  ['t18', 'Checkout fails with an error for every customer, payment failed, we are losing sales.', true, 'bug', 2],
  ['t19', 'The search is slow sometimes but it works.', false, 'bug', 0],
  ['t20', 'My account is locked after too many login attempts and I cannot log in to pay staff today.', true, 'account', 1],
  ['t21', 'Could the dashboard show totals per week? Just a suggestion.', false, 'feature', 0],
  ['t22', 'Why did the price of my plan change? Nobody told me.', false, 'billing', 1],
  ['t23', 'Two factor codes are not arriving, I am locked out of the admin account.', true, 'account', 1],
  ['t24', 'The export button does nothing, the page stays blank. Frustrated.', false, 'bug', 1],
  ['t25', 'Please update the card on our subscription, the old one expires next month.', false, 'billing', 0],
  ['t26', 'I would like a feature to merge duplicate contacts.', false, 'feature', 0],
  ['t27', 'You charged our card twice again. Unacceptable, cancel our plan or I call a lawyer.', true, 'billing', 2],
  ['t28', 'How do I reset my password? The link in the guide is old.', false, 'account', 0],
  ['t29', 'The calendar shows the wrong time zone after the last release, a small bug.', false, 'bug', 0],
  ['t30', 'Outage: the API returns errors for all requests, our production is stopped.', true, 'bug', 2],
  ['t31', 'Can I get a refund for the unused months of my subscription?', false, 'billing', 0],
  ['t32', 'Where can I download all invoices of last year at once?', false, 'billing', 0],
  ['t33', 'The mobile app logs me out every hour, still happening, annoying.', false, 'bug', 1],
  ['t34', 'Please remove a former employee from our account users.', false, 'account', 0],
  ['t35', 'Payment page is broken and customers cannot pay us, everything stopped.', true, 'billing', 2],
  ['t36', 'An option to export invoices as PDF would help our accountant.', false, 'feature', 0],
  ['t37', 'We were charged for ten seats but only use six. Please correct the invoice.', false, 'billing', 1],
  ['t38', 'Nothing urgent, just feedback: the new menu looks nice.', false, 'feature', 0],
  ['t39', 'My invoice total does not match the price on your website.', false, 'billing', 1],
  ['t40', 'Someone changed our account password without us, a security breach? Locked out now.', true, 'account', 2],
];

/** The tickets as dataset rows: id, the ticket's text as the state, and its labels. */
export const SAMPLE_ROWS = TICKETS.map(([id, state, urgent, category, tone]) => ({ id, state, expected: { urgent, category, tone } }));
