// A real picture for the tests of images on their way to a model: a 2×2 PNG (75 bytes), as
// base64 and as bytes. For tests only.

/** The PNG's base64 text. */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4zwAEYAJE/f8PACHvBPyR0FlHAAAAAElFTkSuQmCC';

/** The same PNG's bytes. */
export const PNG_BYTES: Uint8Array = new Uint8Array(Buffer.from(PNG_BASE64, 'base64'));
