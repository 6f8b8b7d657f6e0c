// Placeholder so the target builds until its issue lands.
