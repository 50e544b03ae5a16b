import {
  LIST_VIEW_LIMITS,
  SAVED_VIEWS_PATH,
  savedViewCreateSchema,
  savedViewIdParamsSchema,
  savedViewListQuerySchema,
  savedViewListSchema,
  savedViewPatchSchema,
  savedViewSchema,
} from '@obd/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentOperator } from '../../auth/plugin.ts';
import type { Db } from '../../db/database.ts';
import { forbidden, HttpError, notFound } from '../../lib/errors.ts';
import { isoNow } from '../../lib/time.ts';
import { mayChange, mayRead, toSavedView } from './mapper.ts';
import {
  countOwnViews,
  deleteSavedView,
  findSavedView,
  insertSavedView,
  isUniqueViolation,
  listSavedViews,
  nameTaken,
  updateSavedView,
} from './repository.ts';

const nameInUse = (name: string) =>
  new HttpError(
    'CONFLICT',
    `You already have a view called "${name}" on this list. Choose another name, or update that view.`,
  );
// A private view of someone else is answered like one that does not exist: its id tells nothing.
const noSuchView = (id: number) =>
  notFound(`There is no view ${id} you can open: it was deleted, or its owner has not shared it.`);

/**
 * Saved views (issue 12): a list's filters, sort and columns under a name. The owner sees and
 * changes their own; a shared view is open to every operator and changed by its owner or an admin.
 */
export function savedViewRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  const readable = async (id: number, viewer: { id: number }) => {
    const view = await findSavedView(db.kysely, id);
    if (!view || !mayRead(view, viewer)) throw noSuchView(id);
    return view;
  };
  const changeable = async (id: number, viewer: { id: number; role: string }) => {
    const view = await readable(id, viewer);
    if (!mayChange(view, viewer)) {
      throw forbidden(
        `The view "${view.name}" belongs to ${view.owner_email ?? 'another operator'}: only they or an admin can change it. Save your own copy instead.`,
      );
    }
    return view;
  };

  r.get(
    SAVED_VIEWS_PATH,
    { schema: { querystring: savedViewListQuerySchema, response: { 200: savedViewListSchema } } },
    async (request) => {
      const viewer = currentOperator(request);
      const rows = await listSavedViews(db.kysely, viewer.id, request.query.list);
      return { views: rows.map((row) => toSavedView(row, viewer)) };
    },
  );

  r.get(
    `${SAVED_VIEWS_PATH}/:id`,
    { schema: { params: savedViewIdParamsSchema, response: { 200: savedViewSchema } } },
    async (request) => {
      const viewer = currentOperator(request);
      return toSavedView(await readable(request.params.id, viewer), viewer);
    },
  );

  r.post(
    SAVED_VIEWS_PATH,
    { schema: { body: savedViewCreateSchema, response: { 201: savedViewSchema } } },
    async (request, reply) => {
      const viewer = currentOperator(request);
      const { list, name, shared, query, columns } = request.body;
      if (await nameTaken(db.kysely, viewer.id, list, name)) throw nameInUse(name);
      if ((await countOwnViews(db.kysely, viewer.id, list)) >= LIST_VIEW_LIMITS.viewsPerList) {
        throw new HttpError(
          'CONFLICT',
          `You have ${LIST_VIEW_LIMITS.viewsPerList} views on this list already: delete one before saving another.`,
        );
      }
      let id: number;
      try {
        id = await insertSavedView(
          db.kysely,
          { owner: viewer.id, list, name, shared, query, columns },
          isoNow(),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw nameInUse(name);
        throw error;
      }
      reply.code(201);
      return toSavedView(await readable(id, viewer), viewer);
    },
  );

  r.patch(
    `${SAVED_VIEWS_PATH}/:id`,
    {
      schema: {
        params: savedViewIdParamsSchema,
        body: savedViewPatchSchema,
        response: { 200: savedViewSchema },
      },
    },
    async (request) => {
      const viewer = currentOperator(request);
      const { id } = request.params;
      const view = await changeable(id, viewer);
      const { name } = request.body;
      if (name !== undefined && (await nameTaken(db.kysely, view.operator_id, view.list, name, id))) {
        throw nameInUse(name);
      }
      try {
        await updateSavedView(db.kysely, id, request.body, isoNow());
      } catch (error) {
        if (isUniqueViolation(error) && name !== undefined) throw nameInUse(name);
        throw error;
      }
      const updated = await findSavedView(db.kysely, id);
      if (!updated) throw noSuchView(id);
      return toSavedView(updated, viewer);
    },
  );

  r.delete(
    `${SAVED_VIEWS_PATH}/:id`,
    { schema: { params: savedViewIdParamsSchema } },
    async (request, reply) => {
      const viewer = currentOperator(request);
      await changeable(request.params.id, viewer);
      await deleteSavedView(db.kysely, request.params.id);
      return reply.code(204).send();
    },
  );
}
