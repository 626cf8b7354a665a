#ifndef QUAKES_CCAIRO_H
#define QUAKES_CCAIRO_H

// cairo for Swift, opened on first use.
//
// cairo is not linked: ccairo_load() opens libcairo.so.2 with dlopen the first time a PNG or PDF
// picture is written or read. Linking it would load cairo and its own dependencies (pixman,
// FreeType, fontconfig, libpng, X11's client libraries...) at the start of every command, and the
// commands that draw nothing, which is most of them, would pay for a library they never call. The
// declarations come from Debian's libcairo2-dev headers.

#include <cairo/cairo-pdf.h>
#include <cairo/cairo.h>

/// Opens cairo, once; returns NULL on success, or why it could not be done.
const char *ccairo_load(void);

// The cairo functions quakes uses, through the table ccairo_load() fills. Call them only after
// ccairo_load() has returned NULL.
cairo_surface_t *ccairo_image_surface_create(cairo_format_t format, int width, int height);
cairo_surface_t *ccairo_image_surface_create_from_png(const char *filename);
int ccairo_image_surface_get_width(cairo_surface_t *surface);
int ccairo_image_surface_get_height(cairo_surface_t *surface);
int ccairo_image_surface_get_stride(cairo_surface_t *surface);
cairo_format_t ccairo_image_surface_get_format(cairo_surface_t *surface);
unsigned char *ccairo_image_surface_get_data(cairo_surface_t *surface);
cairo_surface_t *ccairo_pdf_surface_create_for_stream(cairo_write_func_t write, void *closure, double width,
                                                      double height);
/// Needs cairo 1.16; older ones have no such function, and the PDF is then written without a title.
void ccairo_pdf_surface_set_metadata(cairo_surface_t *surface, cairo_pdf_metadata_t metadata, const char *text);
cairo_status_t ccairo_surface_write_to_png_stream(cairo_surface_t *surface, cairo_write_func_t write, void *closure);
cairo_status_t ccairo_surface_status(cairo_surface_t *surface);
void ccairo_surface_flush(cairo_surface_t *surface);
void ccairo_surface_finish(cairo_surface_t *surface);
void ccairo_surface_destroy(cairo_surface_t *surface);
const char *ccairo_status_to_string(cairo_status_t status);

cairo_t *ccairo_create(cairo_surface_t *target);
void ccairo_destroy(cairo_t *cr);
cairo_status_t ccairo_status(cairo_t *cr);
void ccairo_save(cairo_t *cr);
void ccairo_restore(cairo_t *cr);
void ccairo_set_source_rgba(cairo_t *cr, double red, double green, double blue, double alpha);
void ccairo_set_line_width(cairo_t *cr, double width);
void ccairo_set_fill_rule(cairo_t *cr, cairo_fill_rule_t fill_rule);
void ccairo_paint(cairo_t *cr);
void ccairo_new_path(cairo_t *cr);
void ccairo_move_to(cairo_t *cr, double x, double y);
void ccairo_line_to(cairo_t *cr, double x, double y);
void ccairo_close_path(cairo_t *cr);
void ccairo_rectangle(cairo_t *cr, double x, double y, double width, double height);
void ccairo_arc(cairo_t *cr, double xc, double yc, double radius, double angle1, double angle2);
void ccairo_fill(cairo_t *cr);
void ccairo_fill_preserve(cairo_t *cr);
void ccairo_stroke(cairo_t *cr);
void ccairo_clip(cairo_t *cr);
void ccairo_select_font_face(cairo_t *cr, const char *family, cairo_font_slant_t slant, cairo_font_weight_t weight);
void ccairo_set_font_size(cairo_t *cr, double size);
void ccairo_text_extents(cairo_t *cr, const char *utf8, cairo_text_extents_t *extents);
void ccairo_show_text(cairo_t *cr, const char *utf8);

#endif
