#include "ccairo.h"

#include <cloader.h>
#include <dlfcn.h>

// The functions of the cairo that ccairo_load() opened.
static struct {
    cairo_surface_t *(*image_surface_create)(cairo_format_t format, int width, int height);
    cairo_surface_t *(*image_surface_create_from_png)(const char *filename);
    int (*image_surface_get_width)(cairo_surface_t *surface);
    int (*image_surface_get_height)(cairo_surface_t *surface);
    int (*image_surface_get_stride)(cairo_surface_t *surface);
    cairo_format_t (*image_surface_get_format)(cairo_surface_t *surface);
    unsigned char *(*image_surface_get_data)(cairo_surface_t *surface);
    cairo_surface_t *(*pdf_surface_create_for_stream)(cairo_write_func_t write, void *closure, double width,
                                                      double height);
    void (*pdf_surface_set_metadata)(cairo_surface_t *surface, cairo_pdf_metadata_t metadata, const char *text);
    cairo_status_t (*surface_write_to_png_stream)(cairo_surface_t *surface, cairo_write_func_t write, void *closure);
    cairo_status_t (*surface_status)(cairo_surface_t *surface);
    void (*surface_flush)(cairo_surface_t *surface);
    void (*surface_finish)(cairo_surface_t *surface);
    void (*surface_destroy)(cairo_surface_t *surface);
    const char *(*status_to_string)(cairo_status_t status);
    cairo_t *(*create)(cairo_surface_t *target);
    void (*destroy)(cairo_t *cr);
    cairo_status_t (*status)(cairo_t *cr);
    void (*save)(cairo_t *cr);
    void (*restore)(cairo_t *cr);
    void (*set_source_rgba)(cairo_t *cr, double red, double green, double blue, double alpha);
    void (*set_line_width)(cairo_t *cr, double width);
    void (*set_fill_rule)(cairo_t *cr, cairo_fill_rule_t fill_rule);
    void (*paint)(cairo_t *cr);
    void (*new_path)(cairo_t *cr);
    void (*move_to)(cairo_t *cr, double x, double y);
    void (*line_to)(cairo_t *cr, double x, double y);
    void (*close_path)(cairo_t *cr);
    void (*rectangle)(cairo_t *cr, double x, double y, double width, double height);
    void (*arc)(cairo_t *cr, double xc, double yc, double radius, double angle1, double angle2);
    void (*fill)(cairo_t *cr);
    void (*fill_preserve)(cairo_t *cr);
    void (*stroke)(cairo_t *cr);
    void (*clip)(cairo_t *cr);
    void (*select_font_face)(cairo_t *cr, const char *family, cairo_font_slant_t slant, cairo_font_weight_t weight);
    void (*set_font_size)(cairo_t *cr, double size);
    void (*text_extents)(cairo_t *cr, const char *utf8, cairo_text_extents_t *extents);
    void (*show_text)(cairo_t *cr, const char *utf8);
} api;

static cloader_library cairo = {
    .file = "libcairo.so.2",
    .cannot_open = "cairo could not be loaded (%s); install Debian's libcairo2",
    .missing = "cairo has no %s (quakes needs cairo 1.10 or later)",
    .once = PTHREAD_ONCE_INIT,
};

// POSIX lets a function pointer be converted from dlsym's void pointer this way.
#define FIND(field) (*(void **)&api.field = cloader_find(&cairo, "cairo_" #field))

static void load(void) {
    if (!cloader_open(&cairo)) return;
    FIND(image_surface_create);
    FIND(image_surface_create_from_png);
    FIND(image_surface_get_width);
    FIND(image_surface_get_height);
    FIND(image_surface_get_stride);
    FIND(image_surface_get_format);
    FIND(image_surface_get_data);
    FIND(pdf_surface_create_for_stream);
    FIND(surface_write_to_png_stream);
    FIND(surface_status);
    FIND(surface_flush);
    FIND(surface_finish);
    FIND(surface_destroy);
    FIND(status_to_string);
    FIND(create);
    FIND(destroy);
    FIND(status);
    FIND(save);
    FIND(restore);
    FIND(set_source_rgba);
    FIND(set_line_width);
    FIND(set_fill_rule);
    FIND(paint);
    FIND(new_path);
    FIND(move_to);
    FIND(line_to);
    FIND(close_path);
    FIND(rectangle);
    FIND(arc);
    FIND(fill);
    FIND(fill_preserve);
    FIND(stroke);
    FIND(clip);
    FIND(select_font_face);
    FIND(set_font_size);
    FIND(text_extents);
    FIND(show_text);
    // Only a title rides on it, so a cairo older than 1.16 without it still draws.
    *(void **)&api.pdf_surface_set_metadata = dlsym(cairo.handle, "cairo_pdf_surface_set_metadata");
}

const char *ccairo_load(void) { return cloader_load(&cairo, load); }

cairo_surface_t *ccairo_image_surface_create(cairo_format_t format, int width, int height) {
    return api.image_surface_create(format, width, height);
}

cairo_surface_t *ccairo_image_surface_create_from_png(const char *filename) {
    return api.image_surface_create_from_png(filename);
}

int ccairo_image_surface_get_width(cairo_surface_t *surface) { return api.image_surface_get_width(surface); }
int ccairo_image_surface_get_height(cairo_surface_t *surface) { return api.image_surface_get_height(surface); }
int ccairo_image_surface_get_stride(cairo_surface_t *surface) { return api.image_surface_get_stride(surface); }

cairo_format_t ccairo_image_surface_get_format(cairo_surface_t *surface) {
    return api.image_surface_get_format(surface);
}

unsigned char *ccairo_image_surface_get_data(cairo_surface_t *surface) { return api.image_surface_get_data(surface); }

cairo_surface_t *ccairo_pdf_surface_create_for_stream(cairo_write_func_t write, void *closure, double width,
                                                      double height) {
    return api.pdf_surface_create_for_stream(write, closure, width, height);
}

void ccairo_pdf_surface_set_metadata(cairo_surface_t *surface, cairo_pdf_metadata_t metadata, const char *text) {
    if (api.pdf_surface_set_metadata != NULL) api.pdf_surface_set_metadata(surface, metadata, text);
}

cairo_status_t ccairo_surface_write_to_png_stream(cairo_surface_t *surface, cairo_write_func_t write, void *closure) {
    return api.surface_write_to_png_stream(surface, write, closure);
}

cairo_status_t ccairo_surface_status(cairo_surface_t *surface) { return api.surface_status(surface); }
void ccairo_surface_flush(cairo_surface_t *surface) { api.surface_flush(surface); }
void ccairo_surface_finish(cairo_surface_t *surface) { api.surface_finish(surface); }
void ccairo_surface_destroy(cairo_surface_t *surface) { api.surface_destroy(surface); }
const char *ccairo_status_to_string(cairo_status_t status) { return api.status_to_string(status); }

cairo_t *ccairo_create(cairo_surface_t *target) { return api.create(target); }
void ccairo_destroy(cairo_t *cr) { api.destroy(cr); }
cairo_status_t ccairo_status(cairo_t *cr) { return api.status(cr); }
void ccairo_save(cairo_t *cr) { api.save(cr); }
void ccairo_restore(cairo_t *cr) { api.restore(cr); }

void ccairo_set_source_rgba(cairo_t *cr, double red, double green, double blue, double alpha) {
    api.set_source_rgba(cr, red, green, blue, alpha);
}

void ccairo_set_line_width(cairo_t *cr, double width) { api.set_line_width(cr, width); }
void ccairo_set_fill_rule(cairo_t *cr, cairo_fill_rule_t fill_rule) { api.set_fill_rule(cr, fill_rule); }
void ccairo_paint(cairo_t *cr) { api.paint(cr); }
void ccairo_new_path(cairo_t *cr) { api.new_path(cr); }
void ccairo_move_to(cairo_t *cr, double x, double y) { api.move_to(cr, x, y); }
void ccairo_line_to(cairo_t *cr, double x, double y) { api.line_to(cr, x, y); }
void ccairo_close_path(cairo_t *cr) { api.close_path(cr); }

void ccairo_rectangle(cairo_t *cr, double x, double y, double width, double height) {
    api.rectangle(cr, x, y, width, height);
}

void ccairo_arc(cairo_t *cr, double xc, double yc, double radius, double angle1, double angle2) {
    api.arc(cr, xc, yc, radius, angle1, angle2);
}

void ccairo_fill(cairo_t *cr) { api.fill(cr); }
void ccairo_fill_preserve(cairo_t *cr) { api.fill_preserve(cr); }
void ccairo_stroke(cairo_t *cr) { api.stroke(cr); }
void ccairo_clip(cairo_t *cr) { api.clip(cr); }

void ccairo_select_font_face(cairo_t *cr, const char *family, cairo_font_slant_t slant, cairo_font_weight_t weight) {
    api.select_font_face(cr, family, slant, weight);
}

void ccairo_set_font_size(cairo_t *cr, double size) { api.set_font_size(cr, size); }

void ccairo_text_extents(cairo_t *cr, const char *utf8, cairo_text_extents_t *extents) {
    api.text_extents(cr, utf8, extents);
}

void ccairo_show_text(cairo_t *cr, const char *utf8) { api.show_text(cr, utf8); }
