-- The first day of the last month a contract owes (its end month, or its withdrawal month when
-- withdrawn), as a date. Built from immutable parts only (date_trunc on a timestamp without time
-- zone), so the planner writes it into the statements that call it: the reports that read every
-- contract of a range call it once per contract. contract_last_month() is the same month as text
-- (to_char is not immutable, so it stays a function call; it now reads this one, one rule).
CREATE FUNCTION contract_end_month(end_date date, status text, withdrawn_on date) RETURNS date IMMUTABLE LANGUAGE sql AS $$
  SELECT date_trunc('month', (CASE WHEN status = 'WITHDRAWN' AND withdrawn_on IS NOT NULL THEN least(end_date, withdrawn_on) ELSE end_date END)::timestamp)::date
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION contract_last_month(end_date date, status text, withdrawn_on date) RETURNS text IMMUTABLE LANGUAGE sql AS $$
  SELECT to_char(contract_end_month(end_date, status, withdrawn_on), 'YYYY-MM')
$$;
