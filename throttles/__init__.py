"""The request throttles, in one place: the client's address behind the proxies (`address`) and
the one counter every limit uses (`counter`: the login limits, the sign-up, password-reset and club
roles throttles, the recovery-code guesses), kept in the `Count` table so every app server and
worker sees the same counts. Imports no app; every app may use it."""
