-- One name for the card total (issue 37): a closed shift's card total (top-ups apart), as the
-- counter's Z and the dashboard say it (the column was takings_kobo).
alter table dash_shifts rename column takings_kobo to card_total_kobo;
