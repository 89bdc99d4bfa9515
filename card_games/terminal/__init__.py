"""Terminal presentation shared by the card games: tables (``table``), the per-prompt display
(``display``) and the end-of-game report (``report``). Move input lives in ``input*`` modules."""
