// swaynag's command line (see NagRequest).
