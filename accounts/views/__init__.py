"""Account pages, one module per job: signing up (`signup`), logging in and out (`session`), the
password reset and change (`passwords`). The rest of the password pages are Django's own views
(accounts/urls.py) with this app's templates."""
