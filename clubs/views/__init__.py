"""Organiser pages, one module per page: your clubs and founding one (`club`), the roster
(`roster`), a roster player's page (`players`: rename, retire, invite, merge), accepting an invite
(`invites`), the seasons (`seasons`: create, set dates, close). No admin needed for any club task.

Every page is a plain form with post/redirect/get; a view validates with a form from
`clubs.forms` and writes through `clubs.services`. Who may do what: any signed-in user creates a
club and becomes its organiser; the club's organisers (and site staff) manage it
(`require_club_role("manage")`); whoever holds an invite link accepts it while signed in.
"""
