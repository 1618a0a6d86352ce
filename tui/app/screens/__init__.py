"""The app's screens, one a file with its stylesheet beside it; the modal dialogs together in `dialogs`."""
